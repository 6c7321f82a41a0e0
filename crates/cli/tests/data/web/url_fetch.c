/* A PPAPI module for the web_url_loader test: it GETs "data.bin", beside its page,
 * through PPB_URLLoader, reading the body in
 * 1000-byte pieces from completion callbacks, and posts
 * "status=S url=U bytes=N fnv=H progress=R/T type=CONTENT-TYPE"; then it tries a
 * cross-origin URL without allow_cross_origin_requests and posts "cross=RESULT". */
#include <stdio.h>
#include "ppapi_min.h"
#include "ppapi_url.h"


static const struct PPB_URLLoader_1_0 *loader_if;
static const struct PPB_URLRequestInfo_1_0 *request_if;
static const struct PPB_URLResponseInfo_1_0 *response_if;
static const struct PPB_Core_1_0 *core;
static PP_Resource loader;
static const char url[] = "data.bin";
static char buffer[1000];
static uint32_t total, hash = 2166136261u;

static struct PP_Var string_var(const char *s) { return var->VarFromUtf8(s, (uint32_t)strlen(s)); }
static struct PP_Var bool_var(int b) {
  struct PP_Var v = {PP_VARTYPE_BOOL, 0, {0}};
  v.value.as_int = b;
  return v;
}

static void never_called(void *user, int32_t result) {
  (void)user, (void)result;
  post("the refused Open completed");
}

static void finish(int32_t result) {
  char line[512], got_url[200], headers[2000], type[100] = "";
  int64_t received = -1, expected = -1;
  PP_Resource info = loader_if->GetResponseInfo(loader);
  struct PP_Var status = response_if->GetProperty(info, RESPONSE_STATUSCODE);
  struct PP_Var v = response_if->GetProperty(info, RESPONSE_URL);
  var_text(v, got_url, sizeof got_url);
  var->Release(v);
  v = response_if->GetProperty(info, RESPONSE_HEADERS);
  var_text(v, headers, sizeof headers);
  var->Release(v);
  const char *ct = strstr(headers, "content-type: ");
  if (ct) sscanf(ct + 14, "%99[^\n]", type);
  core->ReleaseResource(info);
  loader_if->GetDownloadProgress(loader, &received, &expected);
  snprintf(line, sizeof line, "status=%d url=%s bytes=%u fnv=%08x progress=%d/%d type=%s result=%d",
           (int)status.value.as_int, got_url, (unsigned)total, (unsigned)hash, (int)received, (int)expected, type,
           (int)result);
  post(line);
  core->ReleaseResource(loader);

  /* Another origin, without allow_cross_origin_requests: refused at once. */
  PP_Resource other = loader_if->Create(the_instance);
  PP_Resource request = request_if->Create(the_instance);
  struct PP_Var u = string_var("http://other.invalid/secret");
  request_if->SetProperty(request, REQUEST_URL, u);
  var->Release(u);
  snprintf(line, sizeof line, "cross=%d",
           (int)loader_if->Open(other, request, (struct PP_CompletionCallback){never_called, NULL, 0}));
  post(line);
}

static void on_read(void *user, int32_t result);
static void read_more(void) {
  for (;;) {
    int32_t n = loader_if->ReadResponseBody(loader, buffer, sizeof buffer,
                                            (struct PP_CompletionCallback){on_read, NULL, 0});
    if (n == -1) return; /* PP_OK_COMPLETIONPENDING: on_read comes later */
    if (n <= 0) {
      finish(n);
      return;
    }
    for (int32_t k = 0; k < n; k++) hash = (hash ^ (uint8_t)buffer[k]) * 16777619u;
    total += (uint32_t)n;
  }
}
static void on_read(void *user, int32_t result) {
  (void)user;
  if (result <= 0) {
    finish(result);
    return;
  }
  for (int32_t k = 0; k < result; k++) hash = (hash ^ (uint8_t)buffer[k]) * 16777619u;
  total += (uint32_t)result;
  read_more();
}
static void on_open(void *user, int32_t result) {
  (void)user;
  if (result != 0) {
    char line[64];
    snprintf(line, sizeof line, "open failed %d", (int)result);
    post(line);
    return;
  }
  read_more();
}

static const void *module_interface(const char *name) {
  (void)name;
  return NULL;
}

static void instance_created(void) {
  loader_if = get_browser_interface("PPB_URLLoader;1.0");
  request_if = get_browser_interface("PPB_URLRequestInfo;1.0");
  response_if = get_browser_interface("PPB_URLResponseInfo;1.0");
  core = get_browser_interface("PPB_Core;1.0");
  if (!loader_if || !request_if || !response_if || !core) {
    post("missing interfaces");
    return;
  }
  loader = loader_if->Create(the_instance);
  PP_Resource request = request_if->Create(the_instance);
  struct PP_Var u = string_var(url), m = string_var("GET");
  int ok = request_if->SetProperty(request, REQUEST_URL, u) && request_if->SetProperty(request, REQUEST_METHOD, m) &&
           request_if->SetProperty(request, REQUEST_RECORDDOWNLOADPROGRESS, bool_var(1));
  var->Release(u);
  var->Release(m);
  if (!ok) {
    post("SetProperty failed");
    return;
  }
  int32_t r = loader_if->Open(loader, request, (struct PP_CompletionCallback){on_open, NULL, 0});
  core->ReleaseResource(request);
  if (r != -1) on_open(NULL, r);
}
