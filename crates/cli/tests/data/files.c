/* File access through the IRT's filename and fdio interfaces, under --dir: used by
   wasm_files.rs to compare `pnacl run` with `pnacl wasm` and node. argv[1] is the
   directory as the guest sees it. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void try_open(const char *path) {
  FILE *f = fopen(path, "r");
  printf("%s: %s\n", path, f ? "opened" : "refused");
  if (f) fclose(f);
}

int main(int argc, char **argv) {
  char path[512], buf[128];
  if (argc < 2) return 2;
  snprintf(path, sizeof path, "%s/in.txt", argv[1]);
  FILE *f = fopen(path, "r");
  if (!f) {
    printf("cannot open %s: errno %d\n", path, errno);
    return 1;
  }
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = 0;
  printf("read %u bytes: %s", (unsigned)n, buf);
  fseek(f, 6, SEEK_SET);
  n = fread(buf, 1, 5, f);
  buf[n] = 0;
  printf("at 6: %s\n", buf);
  fclose(f);
  snprintf(path, sizeof path, "%s/out.txt", argv[1]);
  f = fopen(path, "w");
  for (int i = 0; i < 3; i++) fprintf(f, "line %d\n", i);
  fclose(f);
  int fd = open(path, O_RDONLY);
  long end = lseek(fd, 0, SEEK_END);
  lseek(fd, 5, SEEK_SET);
  n = read(fd, buf, 3);
  buf[n] = 0;
  printf("out.txt: %ld bytes, at 5: %s\n", end, buf);
  close(fd);
  try_open("/etc/passwd");
  snprintf(path, sizeof path, "%s/../../../../etc/passwd", argv[1]);
  try_open(path);
  snprintf(path, sizeof path, "%s/escape/passwd", argv[1]);
  try_open(path);
  snprintf(path, sizeof path, "%s/missing.txt", argv[1]);
  f = fopen(path, "r");
  printf("missing: errno %d\n", f ? 0 : errno);
  return 0;
}
