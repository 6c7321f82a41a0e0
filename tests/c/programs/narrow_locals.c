/* Local arrays of i8 and i16 fields, copied and summed: many uses of each alloca. Issue 28
   (pnacl cc, thaw, freeze gives the same pexe) and the gcc comparison. */
#include <stdio.h>
#include <string.h>

struct pair { signed char c; short s; };

static void fill(struct pair *p, int n, int seed) {
  for (int i = 0; i < n; i++) { p[i].c = (signed char)(seed * i); p[i].s = (short)(seed * i * 300); }
}

static int sum(const struct pair *p, int n) {
  int t = 0;
  for (int i = 0; i < n; i++) t += p[i].c * 3 + p[i].s;
  return t;
}

int main(int argc, char **argv) {
  struct pair a[8], b[8];
  signed char bytes[16];
  short halves[4];
  memset(a, 0, sizeof a); /* the padding byte after each c is copied below */
  memset(b, 0, sizeof b);
  fill(a, 8, argc + 1);
  fill(b, 8, argc + 2);
  memcpy(bytes, a, sizeof bytes);
  memcpy(halves, b, sizeof halves);
  int t = sum(a, 8) - sum(b, 8);
  for (int i = 0; i < 16; i++) t += bytes[i];
  for (int i = 0; i < 4; i++) t ^= halves[i];
  printf("%d\n", t);
  return 0;
}
