/* <locale.h>: the C locale's name and conventions, C.UTF-8, multibyte conversions. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

int main(void) {
    printf("initial: %s\n", setlocale(LC_ALL, NULL));
    printf("C: %s\n", setlocale(LC_ALL, "C"));
    struct lconv *lc = localeconv();
    printf("decimal_point '%s' thousands_sep '%s' grouping %d\n", lc->decimal_point, lc->thousands_sep,
           lc->grouping[0]);
    printf("%.3f %g\n", 1234.5678, 0.000125);
    const char *utf8 = setlocale(LC_CTYPE, "C.UTF-8");
    printf("C.UTF-8: %s\n", utf8 ? utf8 : "(null)");
    const char *text = "gr\xc3\xbc\xc3\x9f dich, \xe2\x82\xac 5";
    wchar_t wide[64];
    size_t n = mbstowcs(wide, text, 64);
    printf("mbstowcs: %d characters, %d bytes\n", (int)n, (int)strlen(text));
    for (size_t i = 0; i < n; i++)
        printf("%s%lx", i ? " " : "", (unsigned long)wide[i]);
    printf("\n");
    char back[64];
    size_t m = wcstombs(back, wide, sizeof back);
    printf("wcstombs: %d, same: %d\n", (int)m, strcmp(back, text) == 0);
    printf("mblen(\\xe2\\x82\\xac) = %d\n", mblen("\xe2\x82\xac", 3));
    printf("invalid: %d\n", (int)mbstowcs(wide, "\xff", 4));
    printf("back to C: %s\n", setlocale(LC_ALL, "C"));
    printf("nonsense: %s\n", setlocale(LC_ALL, "xx_NOWHERE") ? "set" : "refused");
    return 0;
}
