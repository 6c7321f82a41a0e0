void note(char c);

__attribute__((constructor)) static void init_c(void) { note('c'); }
