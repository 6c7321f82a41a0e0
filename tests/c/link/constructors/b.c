void note(char c);
static int value;

__attribute__((constructor)) static void init_b(void) { note('b'); value = 42; }
__attribute__((constructor)) static void init_b2(void) { note('B'); value++; }
__attribute__((used)) static int kept_b = 2;

int b_value(void) { return value; }
