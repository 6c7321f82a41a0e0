/* <sys/stat.h>, <utime.h>, <unistd.h>, <stdio.h> on files: create, stat, set times,
 * rename, link, unlink, remove, directories. Run in a scratch directory (the test gives
 * pnacl run --dir for it). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utime.h>

/* errno by name: newlib's strerror texts are not all glibc's. */
static const char *name(int e) {
    switch (e) {
    case 0: return "0";
    case ENOENT: return "ENOENT";
    case EEXIST: return "EEXIST";
    case EBADF: return "EBADF";
    case ENOTDIR: return "ENOTDIR";
    case EISDIR: return "EISDIR";
    case ENOTEMPTY: return "ENOTEMPTY";
    case EACCES: return "EACCES";
    default: return "other";
    }
}

static void say(const char *what, int r) { printf("%s: %d%s%s\n", what, r, r ? " " : "", r ? name(errno) : ""); }

int main(void) {
    FILE *f = fopen("a.txt", "w");
    fputs("hello, files\n", f);
    fprintf(f, "%d %s\n", 42, "more");
    fclose(f);
    struct stat st;
    say("stat a.txt", stat("a.txt", &st));
    printf("size %lld regular %d dir %d mode %o\n", (long long)st.st_size, S_ISREG(st.st_mode),
           S_ISDIR(st.st_mode), (unsigned)(st.st_mode & 0777));
    struct utimbuf times = {1000000000, 1100000000};
    say("utime", utime("a.txt", &times));
    stat("a.txt", &st);
    printf("atime %lld mtime %lld\n", (long long)st.st_atime, (long long)st.st_mtime);
    say("rename a->b", rename("a.txt", "b.txt"));
    errno = 0;
    FILE *gone = fopen("a.txt", "r");
    printf("open a.txt: %s (%s)\n", gone ? "exists" : "gone", name(errno));
    f = fopen("b.txt", "r");
    char line[64];
    printf("b.txt: %s", fgets(line, sizeof line, f));
    fclose(f);
    say("mkdir d", mkdir("d", 0755));
    say("stat d", stat("d", &st));
    printf("dir %d\n", S_ISDIR(st.st_mode));
    say("mkdir d again", mkdir("d", 0755));
    say("rename b->d/c", rename("b.txt", "d/c.txt"));
    say("rmdir d (not empty)", rmdir("d"));
    int fd = open("d/c.txt", O_RDONLY);
    printf("open fd >= 3: %d\n", fd >= 3);
    say("fstat", fstat(fd, &st));
    printf("size %lld\n", (long long)st.st_size);
    printf("lseek end %lld\n", (long long)lseek(fd, 0, SEEK_END));
    printf("lseek 6 %lld\n", (long long)lseek(fd, 6, SEEK_SET));
    char buf[16] = {0};
    int got = (int)read(fd, buf, 5);
    printf("read %d '%s'\n", got, buf);
    say("close", close(fd));
    say("close again", close(fd));
    fd = open("d/new", O_WRONLY | O_CREAT | O_EXCL, 0600);
    printf("create: %d\n", fd >= 0);
    printf("write %d\n", (int)write(fd, "12345", 5));
    close(fd);
    say("create again (O_EXCL)", open("d/new", O_WRONLY | O_CREAT | O_EXCL, 0600) < 0 ? -1 : 0);
    fd = open("d/new", O_WRONLY | O_APPEND);
    write(fd, "678", 3);
    close(fd);
    stat("d/new", &st);
    printf("appended size %lld mode %o\n", (long long)st.st_size, (unsigned)(st.st_mode & 0777));
    fd = open("d/new", O_WRONLY | O_TRUNC);
    close(fd);
    stat("d/new", &st);
    printf("truncated size %lld\n", (long long)st.st_size);
    DIR *dir = opendir("d");
    int entries = 0;
    struct dirent *e;
    while ((e = readdir(dir)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            entries++;
    closedir(dir);
    printf("entries in d: %d\n", entries);
    say("access d/new", access("d/new", F_OK));
    say("unlink d/new", unlink("d/new"));
    say("unlink d/new again", unlink("d/new"));
    say("remove d/c.txt", remove("d/c.txt"));
    say("rmdir d", rmdir("d"));
    say("remove missing", remove("missing"));
    say("stat missing", stat("missing", &st));
    return 0;
}
