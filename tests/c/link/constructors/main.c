/* Constructors in several files (llvm.global_ctors in each module: appended, in link
   order, as ld appends .init_array), and `used` statics (llvm.used). */
#include <stdio.h>

char log_buf[16];
int log_len;
void note(char c) { log_buf[log_len++] = c; }

__attribute__((constructor)) static void init_main(void) { note('m'); }
__attribute__((used)) static int kept_main = 1;
int b_value(void);

int main(void) {
    log_buf[log_len] = 0;
    printf("%s %d\n", log_buf, b_value());
    return 0;
}
