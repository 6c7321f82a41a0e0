__attribute__((weak)) int first_weak(void) { return 30; }
__attribute__((weak)) int pick(void) { return 3; }
__attribute__((weak)) int level = 3;
int weak_only(void) { return first_weak() + level; }
