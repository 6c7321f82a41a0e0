/* A PPAPI module for the web_url_loader test: URLLoader's files, and completion
 * callbacks on a thread of the module's own with its PPB_MessageLoop. Its worker
 * thread (pthread):
 * - Opens a URLLoader with a callback before it has a message loop (no_loop=RESULT);
 * - attaches a loop, GETs "data.bin" (then "big.bin") with PP_URLREQUESTPROPERTY_STREAMTOFILE, Opens with
 *   a callback, runs the loop: the Open callback (on this thread) calls
 *   FinishStreamingToFile with a callback, whose callback quits the loop; then it reads
 *   the file GetBodyAsFileRef gives with PPB_FileIO (blocking calls, allowed here);
 * - writes 50,000 bytes to /upload.bin in a temporary file system and POSTs "head:",
 *   bytes [1000, 21000) and [45000, end) of it (AppendDataToBody, AppendFileToBody) to
 *   the embed's `upload` URL, whose server answers with the body's length and hash;
 * - POSTs the file with an expected last-modified time it does not have (refused);
 * - Opens a request the main thread made, and a third thread reads the response info's
 *   status.
 * It posts one report of "name=value" lines, then "done". */
#include <pthread.h>
#include <stdio.h>
#include "ppapi_min.h"
#include "ppapi_url.h"

struct PP_FileInfo { int64_t size; int32_t type, system_type; double created, accessed, modified; };
struct PPB_FileSystem_1_0 {
  PP_Resource (*Create)(PP_Instance instance, int32_t type);
  PP_Bool (*IsFileSystem)(PP_Resource resource);
  int32_t (*Open)(PP_Resource file_system, int64_t expected_size, struct PP_CompletionCallback callback);
  int32_t (*GetType)(PP_Resource file_system);
};
struct PPB_FileRef_1_0 {
  PP_Resource (*Create)(PP_Resource file_system, const char *path);
  PP_Bool (*IsFileRef)(PP_Resource resource);
  int32_t (*GetFileSystemType)(PP_Resource file_ref);
};
struct PPB_FileIO_1_0 {
  PP_Resource (*Create)(PP_Instance instance);
  PP_Bool (*IsFileIO)(PP_Resource resource);
  int32_t (*Open)(PP_Resource file_io, PP_Resource file_ref, int32_t open_flags, struct PP_CompletionCallback callback);
  int32_t (*Query)(PP_Resource file_io, struct PP_FileInfo *info, struct PP_CompletionCallback callback);
  int32_t (*Touch)(PP_Resource file_io, double last_access_time, double last_modified_time,
                   struct PP_CompletionCallback callback);
  int32_t (*Read)(PP_Resource file_io, int64_t offset, char *buffer, int32_t bytes_to_read,
                  struct PP_CompletionCallback callback);
  int32_t (*Write)(PP_Resource file_io, int64_t offset, const char *buffer, int32_t bytes_to_write,
                   struct PP_CompletionCallback callback);
  int32_t (*SetLength)(PP_Resource file_io, int64_t length, struct PP_CompletionCallback callback);
  int32_t (*Flush)(PP_Resource file_io, struct PP_CompletionCallback callback);
  void (*Close)(PP_Resource file_io);
};
enum { OPEN_READ = 1, OPEN_WRITE = 2, OPEN_CREATE = 4, OPEN_TRUNCATE = 8 };
enum { FILESYSTEM_TEMPORARY = 3 };
static const struct PP_CompletionCallback BLOCK = {0, 0, 0};

static const struct PPB_URLLoader_1_0 *loader_if;
static const struct PPB_URLRequestInfo_1_0 *request_if;
static const struct PPB_URLResponseInfo_1_0 *response_if;
static const struct PPB_Core_1_0 *core;
static const struct PPB_MessageLoop_1_0 *loops;
static const struct PPB_FileSystem_1_0 *fsys;
static const struct PPB_FileRef_1_0 *ref_if;
static const struct PPB_FileIO_1_0 *io_if;
static char upload_url[256], report[4096];
static PP_Resource loop, loader;
static PP_Resource made_on_main; /* a request the main thread makes and the worker uses */
static int32_t on_main = -1;
static char buffer[65536];

static void line(const char *name, long long value) {
  size_t n = strlen(report);
  snprintf(report + n, sizeof report - n, "%s=%lld\n", name, value);
}
static void text_line(const char *name, const char *value) {
  size_t n = strlen(report);
  snprintf(report + n, sizeof report - n, "%s=%s\n", name, value);
}
static uint32_t fnv(uint32_t h, const char *bytes, int32_t n) {
  for (int32_t k = 0; k < n; k++) h = (h ^ (uint8_t)bytes[k]) * 16777619u;
  return h;
}
static struct PP_Var string_var(const char *s) { return var->VarFromUtf8(s, (uint32_t)strlen(s)); }
static struct PP_Var bool_var(int b) {
  struct PP_Var v = {PP_VARTYPE_BOOL, 0, {0}};
  v.value.as_int = b;
  return v;
}
static PP_Resource request(const char *url, const char *method) {
  PP_Resource r = request_if->Create(the_instance);
  struct PP_Var u = string_var(url), m = string_var(method);
  request_if->SetProperty(r, REQUEST_URL, u);
  request_if->SetProperty(r, REQUEST_METHOD, m);
  var->Release(u);
  var->Release(m);
  return r;
}
static int32_t status_of(PP_Resource l) {
  PP_Resource info = loader_if->GetResponseInfo(l);
  struct PP_Var status = response_if->GetProperty(info, RESPONSE_STATUSCODE);
  core->ReleaseResource(info);
  return status.value.as_int;
}

static void never_called(void *user, int32_t result) {
  (void)user, (void)result;
  line("never_called", result);
}
static void finished(void *user, int32_t result) {
  (void)user;
  line("finish_callback", result);
  loops->PostQuit(loop, 0);
}
static void opened(void *user, int32_t result) {
  (void)user;
  on_main = core->IsMainThread();
  line("open_callback", result);
  line("open_callback_on_main", on_main);
  int32_t r = loader_if->FinishStreamingToFile(loader, (struct PP_CompletionCallback){finished, NULL, 0});
  if (r != -1) finished(NULL, r);
}
static void upload_opened(void *user, int32_t result) {
  (void)user;
  line("upload_open_callback", result);
  line("upload_open_callback_on_main", core->IsMainThread());
  loops->PostQuit(loop, 0);
}

/* Streams `url` to a file, then reads the file back. */
static void stream(const char *url) {
  text_line("stream", url);
  loader = loader_if->Create(the_instance);
  PP_Resource req = request(url, "GET");
  line("set_stream_to_file", request_if->SetProperty(req, REQUEST_STREAMTOFILE, bool_var(1)));
  request_if->SetProperty(req, REQUEST_RECORDDOWNLOADPROGRESS, bool_var(1));
  line("open", loader_if->Open(loader, req, (struct PP_CompletionCallback){opened, NULL, 0}));
  core->ReleaseResource(req);
  line("run", loops->Run(loop));
  int64_t received = -1, expected = -1;
  loader_if->GetDownloadProgress(loader, &received, &expected);
  line("progress", received);
  line("status", status_of(loader));
  line("read_body", loader_if->ReadResponseBody(loader, buffer, 10, BLOCK));
  PP_Resource info = loader_if->GetResponseInfo(loader);
  PP_Resource file = response_if->GetBodyAsFileRef(info);
  core->ReleaseResource(info);
  line("file_ref", ref_if->IsFileRef(file));
  line("file_system_type", ref_if->GetFileSystemType(file));
  PP_Resource io = io_if->Create(the_instance);
  line("file_open", io_if->Open(io, file, OPEN_READ, BLOCK));
  uint32_t h = 2166136261u;
  int64_t total = 0;
  for (;;) {
    int32_t n = io_if->Read(io, total, buffer, sizeof buffer, BLOCK);
    if (n <= 0) break;
    h = fnv(h, buffer, n);
    total += n;
  }
  line("file_bytes", total);
  char hex[16];
  snprintf(hex, sizeof hex, "%08x", (unsigned)h);
  text_line("file_fnv", hex);
  io_if->Close(io);
  core->ReleaseResource(io);
  core->ReleaseResource(file);
  loader_if->Close(loader);
  core->ReleaseResource(loader);
}

static int32_t other_status = -1;
/* Reads the status of a response info another thread made. */
static void *read_status(void *arg) {
  struct PP_Var status = response_if->GetProperty(*(PP_Resource *)arg, RESPONSE_STATUSCODE);
  other_status = status.value.as_int;
  return NULL;
}

/* Writes /upload.bin and POSTs parts of it. */
static void upload(void) {
  PP_Resource fs = fsys->Create(the_instance, FILESYSTEM_TEMPORARY);
  line("fs_open", fsys->Open(fs, 0, BLOCK));
  PP_Resource file = ref_if->Create(fs, "/upload.bin");
  PP_Resource io = io_if->Create(the_instance);
  line("upload_file_open", io_if->Open(io, file, OPEN_WRITE | OPEN_CREATE | OPEN_TRUNCATE, BLOCK));
  static char bytes[50000];
  for (uint32_t k = 0; k < sizeof bytes; k++) bytes[k] = (char)((k * 7u + 3u) ^ (k >> 8));
  line("upload_file_write", io_if->Write(io, 0, bytes, (int32_t)sizeof bytes, BLOCK));
  io_if->Close(io);
  core->ReleaseResource(io);

  loader = loader_if->Create(the_instance);
  PP_Resource req = request(upload_url, "POST");
  request_if->SetProperty(req, REQUEST_ALLOWCROSSORIGINREQUESTS, bool_var(1));
  line("append_data", request_if->AppendDataToBody(req, "head:", 5));
  line("append_file", request_if->AppendFileToBody(req, file, 1000, 20000, 0));
  line("append_rest", request_if->AppendFileToBody(req, file, 45000, -1, 0));
  line("append_not_a_file", request_if->AppendFileToBody(req, req, 0, -1, 0));
  line("append_bad_offset", request_if->AppendFileToBody(req, file, -5, -1, 0));
  line("upload_open", loader_if->Open(loader, req, (struct PP_CompletionCallback){upload_opened, NULL, 0}));
  core->ReleaseResource(req);
  line("upload_run", loops->Run(loop));
  line("upload_status", status_of(loader));
  char reply[200] = "";
  size_t got = 0;
  for (;;) {
    int32_t n = loader_if->ReadResponseBody(loader, reply + got, (int32_t)(sizeof reply - 1 - got), BLOCK);
    if (n <= 0) break;
    got += (size_t)n;
  }
  reply[got] = 0;
  text_line("upload_reply", reply);
  loader_if->Close(loader);
  core->ReleaseResource(loader);

  /* The file, expected unchanged since a time it does not have. */
  PP_Resource stale = loader_if->Create(the_instance);
  req = request(upload_url, "POST");
  request_if->SetProperty(req, REQUEST_ALLOWCROSSORIGINREQUESTS, bool_var(1));
  request_if->AppendFileToBody(req, file, 0, -1, 1000.0);
  line("stale_open", loader_if->Open(stale, req, BLOCK));
  core->ReleaseResource(req);
  core->ReleaseResource(stale);

  /* A request the main thread made, used here; a response info read by another thread. */
  PP_Resource other = loader_if->Create(the_instance);
  line("main_request_is", request_if->IsURLRequestInfo(made_on_main));
  line("main_request_open", loader_if->Open(other, made_on_main, BLOCK));
  core->ReleaseResource(made_on_main);
  PP_Resource info = loader_if->GetResponseInfo(other);
  pthread_t t;
  pthread_create(&t, 0, read_status, &info);
  pthread_join(t, NULL);
  core->ReleaseResource(info);
  line("other_thread_status", other_status);
  loader_if->Close(other);
  core->ReleaseResource(other);
  core->ReleaseResource(file);
  core->ReleaseResource(fs);
}

static void *worker(void *arg) {
  (void)arg;
  PP_Resource early = loader_if->Create(the_instance);
  PP_Resource req = request("data.bin", "GET");
  line("no_loop", loader_if->Open(early, req, (struct PP_CompletionCallback){never_called, NULL, 0}));
  core->ReleaseResource(req);
  core->ReleaseResource(early);
  loop = loops->Create(the_instance);
  line("attach", loops->AttachToCurrentThread(loop));
  stream("data.bin");
  stream("big.bin");
  upload();
  post(report);
  post("done");
  return NULL;
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
  loops = get_browser_interface("PPB_MessageLoop;1.0");
  fsys = get_browser_interface("PPB_FileSystem;1.0");
  ref_if = get_browser_interface("PPB_FileRef;1.0");
  io_if = get_browser_interface("PPB_FileIO;1.0");
  if (!loader_if || !request_if || !response_if || !core || !loops || !fsys || !ref_if || !io_if) {
    post("missing interfaces");
    return;
  }
  for (uint32_t k = 0; k < the_argc; k++) {
    if (!strcmp(the_argn[k], "upload")) snprintf(upload_url, sizeof upload_url, "%s", the_argv[k]);
  }
  made_on_main = request("data.bin", "GET");
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
}
