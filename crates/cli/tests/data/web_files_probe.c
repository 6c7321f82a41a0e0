/* A PPAPI module (for `pnacl web`, test web_files) that calls PPB_FileSystem, PPB_FileRef
 * and PPB_FileIO as a careless or hostile module might, and posts one line per check,
 * "name=result", to its page. The PPAPI structs are written out here from Chrome's
 * ppapi/c headers (pnacl has no SDK). The main thread opens the file system (a blocking
 * call there must be refused; a callback must run on the main thread), then a worker
 * thread makes the blocking calls. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef int32_t PP_Instance, PP_Resource, PP_Module, PP_Bool;
struct PP_Var { int32_t type, padding; union { int32_t i; double d; int64_t id; } value; };
struct PP_CompletionCallback { void (*func)(void *user, int32_t result); void *user; int32_t flags; };
struct PP_FileInfo { int64_t size; int32_t type, system_type; double created, accessed, modified; };
struct PP_DirectoryEntry { PP_Resource file_ref; int32_t file_type; };
struct PP_ArrayOutput { void *(*get)(void *user, uint32_t count, uint32_t size); void *user; };
typedef const void *(*GetInterface)(const char *name);

struct PPB_Core { void (*add_ref)(PP_Resource); void (*release)(PP_Resource); double (*time)(void);
  double (*ticks)(void); void (*call_on_main)(int32_t, struct PP_CompletionCallback, int32_t);
  PP_Bool (*is_main)(void); };
struct PPB_Var { void (*add_ref)(struct PP_Var); void (*release)(struct PP_Var);
  struct PP_Var (*from_utf8)(const char *, uint32_t); const char *(*to_utf8)(struct PP_Var, uint32_t *); };
struct PPB_Messaging { void (*post)(PP_Instance, struct PP_Var); };
struct PPB_FileSystem { PP_Resource (*create)(PP_Instance, int32_t type); PP_Bool (*is)(PP_Resource);
  int32_t (*open)(PP_Resource, int64_t, struct PP_CompletionCallback); int32_t (*type)(PP_Resource); };
struct PPB_FileRef { PP_Resource (*create)(PP_Resource, const char *); PP_Bool (*is)(PP_Resource);
  int32_t (*fs_type)(PP_Resource); struct PP_Var (*name)(PP_Resource); struct PP_Var (*path)(PP_Resource);
  PP_Resource (*parent)(PP_Resource); int32_t (*mkdir)(PP_Resource, int32_t, struct PP_CompletionCallback);
  int32_t (*touch)(PP_Resource, double, double, struct PP_CompletionCallback);
  int32_t (*del)(PP_Resource, struct PP_CompletionCallback);
  int32_t (*rename)(PP_Resource, PP_Resource, struct PP_CompletionCallback);
  int32_t (*query)(PP_Resource, struct PP_FileInfo *, struct PP_CompletionCallback);
  int32_t (*readdir)(PP_Resource, struct PP_ArrayOutput, struct PP_CompletionCallback); };
struct PPB_FileIO { PP_Resource (*create)(PP_Instance); PP_Bool (*is)(PP_Resource);
  int32_t (*open)(PP_Resource, PP_Resource, int32_t, struct PP_CompletionCallback);
  int32_t (*query)(PP_Resource, struct PP_FileInfo *, struct PP_CompletionCallback);
  int32_t (*touch)(PP_Resource, double, double, struct PP_CompletionCallback);
  int32_t (*read)(PP_Resource, int64_t, char *, int32_t, struct PP_CompletionCallback);
  int32_t (*write)(PP_Resource, int64_t, const char *, int32_t, struct PP_CompletionCallback);
  int32_t (*set_length)(PP_Resource, int64_t, struct PP_CompletionCallback);
  int32_t (*flush)(PP_Resource, struct PP_CompletionCallback); void (*close)(PP_Resource);
  int32_t (*read_to_array)(PP_Resource, int64_t, int32_t, struct PP_ArrayOutput *, struct PP_CompletionCallback); };
struct PPP_Instance { PP_Bool (*did_create)(PP_Instance, uint32_t, const char *[], const char *[]);
  void (*did_destroy)(PP_Instance); void (*did_change_view)(PP_Instance, PP_Resource);
  void (*did_change_focus)(PP_Instance, PP_Bool); PP_Bool (*handle_document_load)(PP_Instance, PP_Resource); };
struct PP_StartFunctions { int32_t (*init)(PP_Module, GetInterface); void (*shutdown)(void);
  const void *(*get_interface)(const char *); };
struct nacl_irt_ppapihook { int (*start)(const struct PP_StartFunctions *); void (*register_thread_creator)(const void *); };
int __pnacl_irt_query_table(const char *name, void *table, size_t size);

enum { READ = 1, WRITE = 2, CREATE = 4, TRUNCATE = 8, EXCLUSIVE = 16 };
static const struct PP_CompletionCallback BLOCK = {0, 0, 0};

static const struct PPB_Core *core;
static const struct PPB_Var *var;
static const struct PPB_Messaging *messaging;
static const struct PPB_FileSystem *fsys;
static const struct PPB_FileRef *ref;
static const struct PPB_FileIO *io;
static PP_Instance instance;
static PP_Resource fs;
static char report[8192];
static struct PP_Var made_on_main; /* a string var the worker thread reads */

static void line(const char *name, long long value) {
  size_t n = strlen(report);
  snprintf(report + n, sizeof report - n, "%s=%lld\n", name, value);
}

static void post(const char *text) {
  struct PP_Var v = var->from_utf8(text, strlen(text));
  messaging->post(instance, v);
  var->release(v);
}

/* A FileRef's name or path as text (into buf). */
static const char *text(struct PP_Var v, char *buf, size_t size) {
  uint32_t len = 0;
  const char *s = var->to_utf8(v, &len);
  snprintf(buf, size, "%.*s", s ? (int)len : 0, s ? s : "");
  var->release(v);
  return buf;
}

static char entries_buf[64];
static void *entries_out(void *user, uint32_t count, uint32_t size) {
  (void)user;
  return count * size <= sizeof entries_buf ? entries_buf : 0;
}

static int32_t unused_result;
static void unused(void *user, int32_t result) { (void)user; unused_result = result; }

static void *worker(void *arg) {
  (void)arg;
  char buf[64];
  struct PP_FileInfo info;
  post(text(made_on_main, buf, sizeof buf)); /* "made on the main thread" */
  line("ref_relative", ref->create(fs, "relative"));
  line("ref_dotdot", ref->create(fs, "/a/../b"));
  line("ref_bad_pointer", ref->create(fs, (const char *)16));
  PP_Resource dir = ref->create(fs, "/probe/");
  line("ref_is", ref->is(dir));
  line("ref_fs_type", ref->fs_type(dir));
  post(text(ref->path(dir), buf, sizeof buf)); /* "/probe" */
  PP_Resource parent = ref->parent(dir);
  post(text(ref->name(parent), buf, sizeof buf)); /* "/" */
  line("delete_missing", ref->del(dir, BLOCK));
  line("mkdir", ref->mkdir(dir, 0, BLOCK));
  line("mkdir_again", ref->mkdir(dir, 0, BLOCK));
  line("mkdir_exclusive", ref->mkdir(dir, 2, BLOCK));
  PP_Resource deep = ref->create(fs, "/probe/x/y");
  line("mkdir_no_parent", ref->mkdir(deep, 0, BLOCK));
  line("mkdir_ancestors", ref->mkdir(deep, 1, BLOCK));
  PP_Resource file = ref->create(fs, "/probe/f");
  line("io_open_missing", io->open(io->create(instance), file, READ, BLOCK));
  line("io_open_truncate_readonly", io->open(io->create(instance), file, READ | CREATE | TRUNCATE, BLOCK));
  PP_Resource f = io->create(instance);
  line("io_open_create", io->open(f, file, READ | WRITE | CREATE, BLOCK));
  line("io_write", io->write(f, 0, "hello", 5, BLOCK));
  char small[16];
  line("io_read_huge_count", io->read(f, 0, small, 0x7fffffff, BLOCK));
  line("io_read_bytes_match", memcmp(small, "hello", 5) == 0);
  line("io_read_past_end", io->read(f, 100, small, 4, BLOCK));
  line("io_read_bad_pointer", io->read(f, 0, (char *)16, 5, BLOCK));
  line("io_read_negative", io->read(f, 0, small, -1, BLOCK));
  line("io_query", io->query(f, &info, BLOCK));
  line("io_query_size", info.size);
  line("io_set_length", io->set_length(f, 2, BLOCK));
  line("ref_query", ref->query(file, &info, BLOCK));
  line("ref_query_size", info.size);
  line("ref_query_type", info.type);
  line("ref_query_bad_pointer", ref->query(file, (struct PP_FileInfo *)16, BLOCK));
  line("io_bad_resource", io->read(12345, 0, small, 4, BLOCK));
  line("no_message_loop", io->query(f, &info, (struct PP_CompletionCallback){unused, 0, 0}));
  PP_Resource g = io->create(instance);
  line("io_open_exclusive_exists", io->open(g, file, WRITE | CREATE | EXCLUSIVE, BLOCK));
  PP_Resource r = io->create(instance);
  line("io_open_readonly", io->open(r, file, READ, BLOCK));
  line("io_write_readonly", io->write(r, 0, "x", 1, BLOCK));
  struct PP_ArrayOutput out = {entries_out, 0};
  line("read_to_array", io->read_to_array(r, 0, 1 << 30, &out, BLOCK));
  line("readdir", ref->readdir(dir, out, BLOCK));
  struct PP_DirectoryEntry *e = (struct PP_DirectoryEntry *)entries_buf;
  post(text(ref->name(e[0].file_ref), buf, sizeof buf)); /* "f", then "x" */
  post(text(ref->name(e[1].file_ref), buf, sizeof buf));
  line("readdir_types", e[0].file_type * 10 + e[1].file_type);
  PP_Resource moved = ref->create(fs, "/probe/g");
  line("rename_open", ref->rename(file, moved, BLOCK));
  io->close(f);
  io->close(r);
  core->release(f);
  core->release(r);
  core->release(g);
  line("rename", ref->rename(file, moved, BLOCK));
  PP_Resource z = ref->create(fs, "/probe/z");
  PP_Resource x = ref->create(fs, "/probe/x");
  line("rename_dir", ref->rename(x, z, BLOCK));
  line("rename_dir_back", ref->rename(z, x, BLOCK));
  line("query_renamed_away", ref->query(file, &info, BLOCK));
  line("delete_nonempty", ref->del(dir, BLOCK));
  line("delete_file", ref->del(moved, BLOCK));
  line("delete_deep", ref->del(deep, BLOCK));
  line("delete_x", ref->del(x, BLOCK));
  line("delete_dir", ref->del(dir, BLOCK));
  line("delete_root", ref->del(parent, BLOCK));
  /* The temporary file system is another tree. */
  PP_Resource tmp = fsys->create(instance, 3);
  line("tmp_open", fsys->open(tmp, 0, BLOCK));
  PP_Resource tmp_file = ref->create(tmp, "/t");
  PP_Resource t = io->create(instance);
  line("tmp_io_open", io->open(t, tmp_file, WRITE | CREATE | TRUNCATE, BLOCK));
  line("tmp_write", io->write(t, 0, "abc", 3, BLOCK));
  line("tmp_fs_type", ref->fs_type(tmp_file));
  line("tmp_not_persistent", ref->query(ref->create(fs, "/t"), &info, BLOCK));
  line("rename_across", ref->rename(tmp_file, ref->create(fs, "/t"), BLOCK));
  io->close(t);
  line("tmp_delete", ref->del(tmp_file, BLOCK));
  post(report);
  post("done");
  return 0;
}

static void opened(void *user, int32_t result) {
  (void)user;
  line("open_callback", result);
  line("open_callback_on_main", core->is_main());
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
}

static PP_Bool did_create(PP_Instance inst, uint32_t argc, const char *argn[], const char *argv[]) {
  (void)argc, (void)argn, (void)argv;
  instance = inst;
  made_on_main = var->from_utf8("made on the main thread", 23);
  line("fs_external", fsys->create(inst, 1));
  fs = fsys->create(inst, 2);
  line("fs_is", fsys->is(fs));
  line("fs_type", fsys->type(fs));
  line("fs_open_blocking_on_main", fsys->open(fs, 0, BLOCK));
  line("fs_open", fsys->open(fs, 0, (struct PP_CompletionCallback){opened, 0, 0}));
  return 1;
}
static void did_destroy(PP_Instance i) { (void)i; }
static void did_change_view(PP_Instance i, PP_Resource v) { (void)i, (void)v; }
static void did_change_focus(PP_Instance i, PP_Bool f) { (void)i, (void)f; }
static PP_Bool handle_document_load(PP_Instance i, PP_Resource l) { (void)i, (void)l; return 0; }
static const struct PPP_Instance ppp_instance = {did_create, did_destroy, did_change_view, did_change_focus,
  handle_document_load};

static int32_t init(PP_Module module, GetInterface get) {
  (void)module;
  core = get("PPB_Core;1.0");
  var = get("PPB_Var;1.1");
  messaging = get("PPB_Messaging;1.0");
  fsys = get("PPB_FileSystem;1.0");
  ref = get("PPB_FileRef;1.2");
  io = get("PPB_FileIO;1.1");
  return core && var && messaging && fsys && ref && io ? 0 : -1;
}
static void shutdown(void) {}
static const void *get_interface(const char *name) {
  return strcmp(name, "PPP_Instance;1.1") == 0 ? &ppp_instance : 0;
}

int main(void) {
  struct nacl_irt_ppapihook hook;
  static const struct PP_StartFunctions start = {init, shutdown, get_interface};
  if (!__pnacl_irt_query_table("nacl-irt-ppapihook-0.1", &hook, sizeof hook)) return 1;
  return hook.start(&start);
}
