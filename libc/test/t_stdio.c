#include "pnl.h"
int test_stdio(const char *d) { (void)d; return 0; }
int test_startup(int argc, char **argv) { (void)argc; (void)argv; return 0; }
