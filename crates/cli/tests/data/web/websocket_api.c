/* A PPAPI module for the web_websocket test: the page sends it a ws:// URL of an echo
 * server; it connects on the main thread with completion callbacks, sends a text and a
 * binary message, receives both back, closes with a code and a reason, and posts a line
 * at each step with what PPB_WebSocket reports (ready state, URL, buffered amount, close
 * code, reason and cleanness), and the errors of bad calls. Then a worker thread (pthread)
 * connects with a callback before it has a message loop (refused), attaches one, and
 * connects, sends, receives and closes with callbacks that must run on it; it posts
 * "thread ..." with what it saw. Layout from Chromium's ppapi/c/ppb_websocket.h,
 * ppb_var_array_buffer.h and ppb_message_loop.h. */
#include <pthread.h>
#include <stdio.h>
#include "ppapi_min.h"

struct PPB_WebSocket_1_0 {
  PP_Resource (*Create)(PP_Instance instance);
  PP_Bool (*IsWebSocket)(PP_Resource resource);
  int32_t (*Connect)(PP_Resource web_socket, struct PP_Var url, const struct PP_Var protocols[],
                     uint32_t protocol_count, struct PP_CompletionCallback callback);
  int32_t (*Close)(PP_Resource web_socket, uint16_t code, struct PP_Var reason, struct PP_CompletionCallback callback);
  int32_t (*ReceiveMessage)(PP_Resource web_socket, struct PP_Var *message, struct PP_CompletionCallback callback);
  int32_t (*SendMessage)(PP_Resource web_socket, struct PP_Var message);
  uint64_t (*GetBufferedAmount)(PP_Resource web_socket);
  uint16_t (*GetCloseCode)(PP_Resource web_socket);
  struct PP_Var (*GetCloseReason)(PP_Resource web_socket);
  PP_Bool (*GetCloseWasClean)(PP_Resource web_socket);
  struct PP_Var (*GetExtensions)(PP_Resource web_socket);
  struct PP_Var (*GetProtocol)(PP_Resource web_socket);
  int32_t (*GetReadyState)(PP_Resource web_socket);
  struct PP_Var (*GetURL)(PP_Resource web_socket);
};
struct PPB_VarArrayBuffer_1_0 {
  struct PP_Var (*Create)(uint32_t size_in_bytes);
  PP_Bool (*ByteLength)(struct PP_Var array, uint32_t *byte_length);
  void *(*Map)(struct PP_Var array);
  void (*Unmap)(struct PP_Var array);
};

static const struct PPB_WebSocket_1_0 *ws_if;
static const struct PPB_MessageLoop_1_0 *loops;
static const struct PPB_Core_1_0 *core;
static char server_url[100];
static const struct PPB_VarArrayBuffer_1_0 *buffers;
static PP_Resource ws;
static struct PP_Var incoming;
static int received;

static void on_message(void *user, int32_t result);
static void on_closed(void *user, int32_t result);

static struct PP_Var string_var(const char *s) { return var->VarFromUtf8(s, (uint32_t)strlen(s)); }

static void describe(struct PP_Var m) {
  char line[128], text[64];
  if (m.type == PP_VARTYPE_STRING) {
    var_text(m, text, sizeof text);
    snprintf(line, sizeof line, "text:%s", text);
  } else if (m.type == PP_VARTYPE_ARRAY_BUFFER) {
    uint32_t n = 0;
    buffers->ByteLength(m, &n);
    const unsigned char *b = buffers->Map(m);
    snprintf(line, sizeof line, "binary:%u:%u,%u,%u", (unsigned)n, b[0], b[1], b[2]);
    buffers->Unmap(m);
  } else {
    snprintf(line, sizeof line, "other:%d", (int)m.type);
  }
  var->Release(m);
  post(line);
}

static void receive_next(void) {
  while (received < 2) {
    int32_t r = ws_if->ReceiveMessage(ws, &incoming, (struct PP_CompletionCallback){on_message, NULL, 0});
    if (r == -1) return;
    if (r != 0) {
      char line[32];
      snprintf(line, sizeof line, "receive failed %d", (int)r);
      post(line);
      return;
    }
    received++;
    describe(incoming);
  }
  struct PP_Var reason = string_var("bye");
  char line[64];
  snprintf(line, sizeof line, "bad close code=%d", (int)ws_if->Close(ws, 999, reason, (struct PP_CompletionCallback){on_closed, NULL, 0}));
  post(line);
  int32_t r = ws_if->Close(ws, 1000, reason, (struct PP_CompletionCallback){on_closed, NULL, 0});
  var->Release(reason);
  snprintf(line, sizeof line, "close=%d state=%d", (int)r, (int)ws_if->GetReadyState(ws));
  post(line);
}

static void on_message(void *user, int32_t result) {
  (void)user;
  if (result != 0) {
    char line[32];
    snprintf(line, sizeof line, "receive failed %d", (int)result);
    post(line);
    return;
  }
  received++;
  describe(incoming);
  receive_next();
}

/* The worker thread's socket, loop and what its callbacks saw. */
static PP_Resource thread_ws, thread_loop;
static struct PP_Var thread_incoming;
static char thread_line[300];

static void thread_note(const char *what, int32_t result) {
  size_t n = strlen(thread_line);
  snprintf(thread_line + n, sizeof thread_line - n, " %s=%d/%d", what, (int)result, (int)core->IsMainThread());
}
static void thread_closed(void *user, int32_t result) {
  (void)user;
  thread_note("closed", result);
  loops->PostQuit(thread_loop, 0);
}
static void thread_received(void *user, int32_t result) {
  (void)user;
  char text[32];
  var_text(thread_incoming, text, sizeof text);
  var->Release(thread_incoming);
  thread_note(text, result);
  struct PP_Var reason = string_var("done");
  thread_note("close", ws_if->Close(thread_ws, 1000, reason, (struct PP_CompletionCallback){thread_closed, NULL, 0}));
  var->Release(reason);
}
static void thread_opened(void *user, int32_t result) {
  (void)user;
  thread_note("open", result);
  struct PP_Var text = string_var("from a thread");
  thread_note("send", ws_if->SendMessage(thread_ws, text));
  var->Release(text);
  int32_t r = ws_if->ReceiveMessage(thread_ws, &thread_incoming, (struct PP_CompletionCallback){thread_received, NULL, 0});
  thread_note("receive", r);
  if (r != -1) thread_received(NULL, r);
}
static void never_called(void *user, int32_t result) {
  (void)user;
  thread_note("never_called", result);
}
static void *worker(void *arg) {
  (void)arg;
  strcpy(thread_line, "thread");
  struct PP_Var u = string_var(server_url);
  PP_Resource early = ws_if->Create(the_instance);
  thread_note("no_loop", ws_if->Connect(early, u, NULL, 0, (struct PP_CompletionCallback){never_called, NULL, 0}));
  core->ReleaseResource(early);
  thread_loop = loops->Create(the_instance);
  thread_note("attach", loops->AttachToCurrentThread(thread_loop));
  thread_ws = ws_if->Create(the_instance);
  thread_note("connect", ws_if->Connect(thread_ws, u, NULL, 0, (struct PP_CompletionCallback){thread_opened, NULL, 0}));
  var->Release(u);
  thread_note("run", loops->Run(thread_loop));
  post(thread_line);
  return NULL;
}

static void on_closed(void *user, int32_t result) {
  (void)user;
  char line[160], reason[32];
  struct PP_Var v = ws_if->GetCloseReason(ws);
  var_text(v, reason, sizeof reason);
  var->Release(v);
  struct PP_Var m;
  int32_t after = ws_if->ReceiveMessage(ws, &m, (struct PP_CompletionCallback){on_message, NULL, 0});
  snprintf(line, sizeof line, "closed result=%d code=%u reason=%s clean=%d state=%d after=%d", (int)result,
           (unsigned)ws_if->GetCloseCode(ws), reason, (int)ws_if->GetCloseWasClean(ws), (int)ws_if->GetReadyState(ws),
           (int)after);
  post(line);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
}

static void on_open(void *user, int32_t result) {
  (void)user;
  char line[200], url[100];
  struct PP_Var v = ws_if->GetURL(ws);
  var_text(v, url, sizeof url);
  var->Release(v);
  snprintf(line, sizeof line, "open result=%d state=%d url=%s", (int)result, (int)ws_if->GetReadyState(ws), url);
  post(line);
  if (result != 0) return;
  struct PP_Var text = string_var("hello");
  int32_t a = ws_if->SendMessage(ws, text);
  var->Release(text);
  struct PP_Var bin = buffers->Create(3);
  unsigned char *b = buffers->Map(bin);
  b[0] = 7, b[1] = 8, b[2] = 9;
  buffers->Unmap(bin);
  int32_t c = ws_if->SendMessage(ws, bin);
  var->Release(bin);
  struct PP_Var number = {PP_VARTYPE_INT32, 0, {0}};
  int32_t d = ws_if->SendMessage(ws, number);
  snprintf(line, sizeof line, "sent %d %d bad=%d buffered<=8:%d", (int)a, (int)c, (int)d,
           ws_if->GetBufferedAmount(ws) <= 8);
  post(line);
  receive_next();
}

static void handle_message(PP_Instance instance, struct PP_Var message) {
  (void)instance;
  char url[100], line[120];
  var_text(message, url, sizeof url);
  snprintf(server_url, sizeof server_url, "%s", url);
  struct PP_Var bad = string_var("http://127.0.0.1/");
  PP_Resource other = ws_if->Create(the_instance);
  int32_t r1 = ws_if->Connect(other, bad, NULL, 0, (struct PP_CompletionCallback){on_open, NULL, 0});
  var->Release(bad);
  int32_t r2 = ws_if->SendMessage(other, message);
  int32_t r3 = ws_if->SendMessage(12345, message);
  /* A pointer into the guest's unmapped first page. */
  int32_t r4 = ws_if->ReceiveMessage(other, (struct PP_Var *)16, (struct PP_CompletionCallback){on_message, NULL, 0});
  snprintf(line, sizeof line, "bad url=%d send before connect=%d bad resource=%d bad pointer=%d is=%d,%d", (int)r1,
           (int)r2, (int)r3, (int)r4, (int)ws_if->IsWebSocket(other), (int)ws_if->IsWebSocket(12345));
  post(line);
  ws = ws_if->Create(the_instance);
  struct PP_Var u = string_var(url);
  int32_t r = ws_if->Connect(ws, u, NULL, 0, (struct PP_CompletionCallback){on_open, NULL, 0});
  var->Release(u);
  snprintf(line, sizeof line, "connect=%d state=%d", (int)r, (int)ws_if->GetReadyState(ws));
  post(line);
}
static const struct PPP_Messaging_1_0 messaging_interface = {handle_message};

static const void *module_interface(const char *name) {
  if (!strcmp(name, "PPP_Messaging;1.0")) return &messaging_interface;
  return NULL;
}

static void instance_created(void) {
  ws_if = get_browser_interface("PPB_WebSocket;1.0");
  buffers = get_browser_interface("PPB_VarArrayBuffer;1.0");
  loops = get_browser_interface("PPB_MessageLoop;1.0");
  core = get_browser_interface("PPB_Core;1.0");
  post(ws_if && buffers && loops && core ? "ready" : "missing interfaces");
}
