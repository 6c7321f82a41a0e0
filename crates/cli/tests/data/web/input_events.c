/* A PPAPI module for the web_input test: it asks for mouse, wheel (filtering) and touch
 * events at first, for keyboard events (filtering) when the page sends "keys", and stops
 * mouse events when the page sends "nomouse"; it posts one line describing each event it
 * gets, and "ack:MESSAGE" after each change. Struct layouts from Chromium's
 * ppapi/c/ppb_input_event.h and ppp_input_event.h. */
#include <stdio.h>
#include "ppapi_min.h"

enum { CLASS_MOUSE = 1, CLASS_KEYBOARD = 2, CLASS_WHEEL = 4, CLASS_TOUCH = 8 };

struct PPB_InputEvent_1_0 {
  int32_t (*RequestInputEvents)(PP_Instance instance, uint32_t event_classes);
  int32_t (*RequestFilteringInputEvents)(PP_Instance instance, uint32_t event_classes);
  void (*ClearInputEventRequest)(PP_Instance instance, uint32_t event_classes);
  PP_Bool (*IsInputEvent)(PP_Resource resource);
  int32_t (*GetType)(PP_Resource event);
  PP_TimeTicks (*GetTimeStamp)(PP_Resource event);
  uint32_t (*GetModifiers)(PP_Resource event);
};
struct PPB_MouseInputEvent_1_1 {
  PP_Resource (*Create)(PP_Instance instance, int32_t type, PP_TimeTicks time_stamp, uint32_t modifiers,
                        int32_t mouse_button, const struct PP_Point *mouse_position, int32_t click_count,
                        const struct PP_Point *mouse_movement);
  PP_Bool (*IsMouseInputEvent)(PP_Resource resource);
  int32_t (*GetButton)(PP_Resource mouse_event);
  struct PP_Point (*GetPosition)(PP_Resource mouse_event);
  int32_t (*GetClickCount)(PP_Resource mouse_event);
  struct PP_Point (*GetMovement)(PP_Resource mouse_event);
};
struct PPB_WheelInputEvent_1_0 {
  PP_Resource (*Create)(PP_Instance instance, PP_TimeTicks time_stamp, uint32_t modifiers,
                        const struct PP_FloatPoint *wheel_delta, const struct PP_FloatPoint *wheel_ticks,
                        PP_Bool scroll_by_page);
  PP_Bool (*IsWheelInputEvent)(PP_Resource resource);
  struct PP_FloatPoint (*GetDelta)(PP_Resource wheel_event);
  struct PP_FloatPoint (*GetTicks)(PP_Resource wheel_event);
  PP_Bool (*GetScrollByPage)(PP_Resource wheel_event);
};
struct PPB_KeyboardInputEvent_1_2 {
  PP_Resource (*Create)(PP_Instance instance, int32_t type, PP_TimeTicks time_stamp, uint32_t modifiers,
                        uint32_t key_code, struct PP_Var character_text, struct PP_Var code);
  PP_Bool (*IsKeyboardInputEvent)(PP_Resource resource);
  uint32_t (*GetKeyCode)(PP_Resource key_event);
  struct PP_Var (*GetCharacterText)(PP_Resource character_event);
  struct PP_Var (*GetCode)(PP_Resource key_event);
};
struct PPB_TouchInputEvent_1_0 {
  PP_Resource (*Create)(PP_Instance instance, int32_t type, PP_TimeTicks time_stamp, uint32_t modifiers);
  void (*AddTouchPoint)(PP_Resource touch_event, int32_t list, const struct PP_TouchPoint *point);
  PP_Bool (*IsTouchInputEvent)(PP_Resource resource);
  uint32_t (*GetTouchCount)(PP_Resource resource, int32_t list);
  struct PP_TouchPoint (*GetTouchByIndex)(PP_Resource resource, int32_t list, uint32_t index);
  struct PP_TouchPoint (*GetTouchById)(PP_Resource resource, int32_t list, uint32_t touch_id);
};
struct PPP_InputEvent_0_1 {
  PP_Bool (*HandleInputEvent)(PP_Instance instance, PP_Resource input_event);
};

static const struct PPB_InputEvent_1_0 *input;
static const struct PPB_MouseInputEvent_1_1 *mouse;
static const struct PPB_WheelInputEvent_1_0 *wheel;
static const struct PPB_KeyboardInputEvent_1_2 *keyboard;
static const struct PPB_TouchInputEvent_1_0 *touch;

static PP_Bool handle_input_event(PP_Instance instance, PP_Resource e) {
  (void)instance;
  char line[256];
  int32_t type = input->GetType(e);
  uint32_t m = input->GetModifiers(e);
  int stamped = input->GetTimeStamp(e) > 0;
  if (mouse->IsMouseInputEvent(e)) {
    struct PP_Point at = mouse->GetPosition(e);
    snprintf(line, sizeof line, "mouse type=%d button=%d x=%d y=%d clicks=%d mods=%u time=%d", (int)type,
             (int)mouse->GetButton(e), (int)at.x, (int)at.y, (int)mouse->GetClickCount(e), (unsigned)m, stamped);
  } else if (wheel->IsWheelInputEvent(e)) {
    struct PP_FloatPoint d = wheel->GetDelta(e), t = wheel->GetTicks(e);
    snprintf(line, sizeof line, "wheel dx=%g dy=%g tx=%g ty=%g page=%d mods=%u", d.x, d.y, t.x, t.y,
             (int)wheel->GetScrollByPage(e), (unsigned)m);
  } else if (keyboard->IsKeyboardInputEvent(e)) {
    char text[32], code[32];
    struct PP_Var v = keyboard->GetCharacterText(e);
    var_text(v, text, sizeof text);
    var->Release(v);
    v = keyboard->GetCode(e);
    var_text(v, code, sizeof code);
    var->Release(v);
    snprintf(line, sizeof line, "key type=%d code=%u text=%s dom=%s mods=%u mouse=%d", (int)type,
             (unsigned)keyboard->GetKeyCode(e), text, code, (unsigned)m, (int)mouse->IsMouseInputEvent(e));
  } else if (touch->IsTouchInputEvent(e)) {
    struct PP_TouchPoint p = touch->GetTouchByIndex(e, 1, 0);
    struct PP_TouchPoint by_id = touch->GetTouchById(e, 1, p.id);
    snprintf(line, sizeof line, "touch type=%d touches=%u changed=%u id=%u x=%g y=%g rx=%g pressure=%g same=%d",
             (int)type, (unsigned)touch->GetTouchCount(e, 0), (unsigned)touch->GetTouchCount(e, 1),
             (unsigned)p.id, p.position.x, p.position.y, p.radius.x, p.pressure, by_id.position.x == p.position.x);
  } else {
    snprintf(line, sizeof line, "other type=%d", (int)type);
  }
  post(line);
  return 1;
}
static const struct PPP_InputEvent_0_1 input_event_interface = {handle_input_event};

static void handle_message(PP_Instance instance, struct PP_Var message) {
  (void)instance;
  char text[32], line[64];
  var_text(message, text, sizeof text);
  if (!strcmp(text, "keys")) input->RequestFilteringInputEvents(the_instance, CLASS_KEYBOARD);
  if (!strcmp(text, "nomouse")) input->ClearInputEventRequest(the_instance, CLASS_MOUSE);
  snprintf(line, sizeof line, "ack:%s", text);
  post(line);
}
static const struct PPP_Messaging_1_0 messaging_interface = {handle_message};

static const void *module_interface(const char *name) {
  if (!strcmp(name, "PPP_InputEvent;0.1")) return &input_event_interface;
  if (!strcmp(name, "PPP_Messaging;1.0")) return &messaging_interface;
  return NULL;
}

static void instance_created(void) {
  input = get_browser_interface("PPB_InputEvent;1.0");
  mouse = get_browser_interface("PPB_MouseInputEvent;1.1");
  wheel = get_browser_interface("PPB_WheelInputEvent;1.0");
  keyboard = get_browser_interface("PPB_KeyboardInputEvent;1.2");
  touch = get_browser_interface("PPB_TouchInputEvent;1.0");
  if (!input || !mouse || !wheel || !keyboard || !touch) {
    post("missing interfaces");
    return;
  }
  int32_t a = input->RequestInputEvents(the_instance, CLASS_MOUSE | CLASS_TOUCH);
  int32_t b = input->RequestFilteringInputEvents(the_instance, CLASS_WHEEL);
  char line[64];
  snprintf(line, sizeof line, "ready %d %d", (int)a, (int)b);
  post(line);
}
