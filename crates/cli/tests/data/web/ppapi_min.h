/* The few PPAPI declarations the browser tests' modules use, written from Chromium's
 * ppapi/c headers (pp_var.h, pp_point.h, pp_touch_point.h, ppb.h, ppp.h, ppb_var.h,
 * ppb_messaging.h, ppp_instance.h, ppp_messaging.h), and the start-up that the SDK's
 * ppapi_main does: query the IRT's nacl-irt-ppapihook-0.1 and call ppapi_start, which
 * runs the module until the page goes. A module defines `module_interface` (its PPP
 * interfaces beyond PPP_Instance) and `instance_created`. */
#ifndef PPAPI_MIN_H
#define PPAPI_MIN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef int32_t PP_Instance;
typedef int32_t PP_Resource;
typedef int32_t PP_Module;
typedef int32_t PP_Bool;
typedef double PP_TimeTicks;

enum { PP_VARTYPE_UNDEFINED = 0, PP_VARTYPE_INT32 = 3, PP_VARTYPE_STRING = 5, PP_VARTYPE_ARRAY_BUFFER = 9 };
struct PP_Var {
  int32_t type;
  int32_t padding;
  union {
    int32_t as_int;
    double as_double;
    int64_t as_id;
  } value;
};
struct PP_Point { int32_t x, y; };
struct PP_FloatPoint { float x, y; };
struct PP_TouchPoint {
  uint32_t id;
  struct PP_FloatPoint position, radius;
  float rotation_angle, pressure;
};
struct PP_CompletionCallback {
  void (*func)(void *user_data, int32_t result);
  void *user_data;
  int32_t flags;
};

typedef const void *(*PPB_GetInterface)(const char *name);

struct PPB_Var_1_1 {
  void (*AddRef)(struct PP_Var var);
  void (*Release)(struct PP_Var var);
  struct PP_Var (*VarFromUtf8)(const char *data, uint32_t len);
  const char *(*VarToUtf8)(struct PP_Var var, uint32_t *len);
};
struct PPB_Messaging_1_0 {
  void (*PostMessage)(PP_Instance instance, struct PP_Var message);
};
struct PPB_Core_1_0 {
  void (*AddRefResource)(PP_Resource resource);
  void (*ReleaseResource)(PP_Resource resource);
  double (*GetTime)(void);
  PP_TimeTicks (*GetTimeTicks)(void);
  void (*CallOnMainThread)(int32_t delay_in_milliseconds, struct PP_CompletionCallback callback, int32_t result);
  PP_Bool (*IsMainThread)(void);
};
/* ppb_message_loop.h */
struct PPB_MessageLoop_1_0 {
  PP_Resource (*Create)(PP_Instance instance);
  PP_Resource (*GetForMainThread)(void);
  PP_Resource (*GetCurrent)(void);
  int32_t (*AttachToCurrentThread)(PP_Resource message_loop);
  int32_t (*Run)(PP_Resource message_loop);
  int32_t (*PostWork)(PP_Resource message_loop, struct PP_CompletionCallback callback, int64_t delay_ms);
  int32_t (*PostQuit)(PP_Resource message_loop, PP_Bool should_destroy);
};
struct PPP_Instance_1_1 {
  PP_Bool (*DidCreate)(PP_Instance instance, uint32_t argc, const char *argn[], const char *argv[]);
  void (*DidDestroy)(PP_Instance instance);
  void (*DidChangeView)(PP_Instance instance, PP_Resource view);
  void (*DidChangeFocus)(PP_Instance instance, PP_Bool has_focus);
  PP_Bool (*HandleDocumentLoad)(PP_Instance instance, PP_Resource url_loader);
};
struct PPP_Messaging_1_0 {
  void (*HandleMessage)(PP_Instance instance, struct PP_Var message);
};

/* The module's side. */
static PPB_GetInterface get_browser_interface;
static const struct PPB_Var_1_1 *var;
static const struct PPB_Messaging_1_0 *messaging;
static PP_Instance the_instance;
/* The embed's attributes, as DidCreate gives them (valid during instance_created). */
static uint32_t the_argc;
static const char **the_argn, **the_argv;
static const void *module_interface(const char *name);
static void instance_created(void);

/* Posts a string to the page. */
static void post(const char *text) {
  struct PP_Var v = var->VarFromUtf8(text, (uint32_t)strlen(text));
  messaging->PostMessage(the_instance, v);
  var->Release(v);
}

/* A string var's text, at most size - 1 bytes of it. */
static void var_text(struct PP_Var v, char *out, size_t size) {
  uint32_t len = 0;
  const char *s = v.type == PP_VARTYPE_STRING ? var->VarToUtf8(v, &len) : NULL;
  if (!s) len = 0;
  if (len >= size) len = (uint32_t)size - 1;
  memcpy(out, s ? s : "", len);
  out[len] = 0;
}

static PP_Bool did_create(PP_Instance instance, uint32_t argc, const char *argn[], const char *argv[]) {
  the_instance = instance;
  the_argc = argc, the_argn = argn, the_argv = argv;
  instance_created();
  return 1;
}
static void did_destroy(PP_Instance instance) { (void)instance; }
static void did_change_view(PP_Instance instance, PP_Resource view) { (void)instance, (void)view; }
static void did_change_focus(PP_Instance instance, PP_Bool focus) { (void)instance, (void)focus; }
static PP_Bool handle_document_load(PP_Instance instance, PP_Resource loader) {
  (void)instance, (void)loader;
  return 0;
}
static const struct PPP_Instance_1_1 instance_interface = {did_create, did_destroy, did_change_view,
                                                           did_change_focus, handle_document_load};

static int32_t initialize_module(PP_Module module, PPB_GetInterface get) {
  (void)module;
  get_browser_interface = get;
  var = get("PPB_Var;1.1");
  messaging = get("PPB_Messaging;1.0");
  return var && messaging ? 0 : -1;
}
static void shutdown_module(void) {}
static const void *get_interface(const char *name) {
  if (!strcmp(name, "PPP_Instance;1.1")) return &instance_interface;
  return module_interface(name);
}

struct PP_StartFunctions {
  int32_t (*PPP_InitializeModule)(PP_Module module, PPB_GetInterface get_browser_interface);
  void (*PPP_ShutdownModule)(void);
  const void *(*PPP_GetInterface)(const char *interface_name);
};
struct nacl_irt_ppapihook {
  int (*ppapi_start)(const struct PP_StartFunctions *);
  void (*ppapi_register_thread_creator)(const void *);
};
/* pnacl's C library keeps the IRT's query function here (libc/platform/start.c). */
extern size_t (*__pnacl_irt_query)(const char *name, void *table, size_t size);

int main(void) {
  static const struct PP_StartFunctions start = {initialize_module, shutdown_module, get_interface};
  struct nacl_irt_ppapihook hook;
  if (__pnacl_irt_query("nacl-irt-ppapihook-0.1", &hook, sizeof hook) != sizeof hook) return 1;
  return hook.ppapi_start(&start);
}

#endif
