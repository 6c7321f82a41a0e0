#include "pnl.h"
int test_strtol(long n) { (void)n; return 0; }
