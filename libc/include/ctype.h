/* ctype.h: pnacl libc. The "C" locale only. */
#ifndef _PNACL_CTYPE_H
#define _PNACL_CTYPE_H

int isalnum(int);
int isalpha(int);
int isblank(int);
int iscntrl(int);
int isdigit(int);
int isgraph(int);
int islower(int);
int isprint(int);
int ispunct(int);
int isspace(int);
int isupper(int);
int isxdigit(int);
int isascii(int);
int tolower(int);
int toupper(int);
int toascii(int);

#endif
