int pick(void) { return 2; }
int level = 2;
int strong_b(void) { return pick() * 100 + level; }
