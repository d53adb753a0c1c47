/* A SIGBUS from a watched SQLite WAL index cut under a statement in flight,
 * repaired instead of killing the process (see wal_index.py).
 *
 * The watch in wal_index.py refuses every statement that starts after another
 * program cut the "-shm" index; a statement already past that check when the
 * cut lands touches a mapped page past the file's new end, and the kernel
 * sends SIGBUS. This handler looks up the faulting address in
 * /proc/self/maps; if it lies in a mapping of a file this process asked to
 * guard, it extends the file back to the mapping's end (pages of zeros) and
 * zeroes what is left of its first region, as the watch does before a
 * connection closes: SQLite takes a zeroed index for one to rebuild from its
 * log, as after a crash. The access then finds a page and the statement
 * goes on; the watch reads the repair count and refuses every statement
 * after it, so the server answers 503 until it is restarted.
 *
 * A SIGBUS anywhere else is not this handler's: it puts back the handler that
 * was there before and returns, so the access faults again and that one
 * (by default, the kernel's: the process ends) answers it.
 *
 * The handler's system calls are async-signal-safe (open, read, fstat,
 * ftruncate, pwrite, close, sigaction); the rest is pure string parsing
 * (strtoull, strcmp) on static buffers, and the paths are fixed before it runs.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_GUARDED 16
#define MAX_PATH 4096
#define FIRST_REGION 32768 /* the index's header and first hash table */

static char guarded[MAX_GUARDED][MAX_PATH];
static volatile sig_atomic_t guarded_count = 0;
static volatile sig_atomic_t repairs[MAX_GUARDED];
static volatile sig_atomic_t installed = 0;
static struct sigaction previous;

/* The mapping of /proc/self/maps that holds address, if it maps a guarded
 * file: its path's index in guarded, and the file's size the mapping needs. */
static int guarded_mapping(uintptr_t address, off_t *needed, ino_t *inode) {
    static char buffer[8192];
    static char line[MAX_PATH + 256];
    int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    size_t length = 0;
    int found = -1;
    for (;;) {
        ssize_t got = read(fd, buffer, sizeof buffer);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        for (ssize_t i = 0; i < got && found < 0; i++) {
            if (buffer[i] != '\n') {
                if (length < sizeof line - 1) line[length++] = buffer[i];
                continue;
            }
            line[length] = '\0';
            length = 0;
            /* start-end perms offset dev inode path */
            char *cursor = line;
            uintptr_t start = (uintptr_t)strtoull(cursor, &cursor, 16);
            if (*cursor != '-') continue;
            uintptr_t end = (uintptr_t)strtoull(cursor + 1, &cursor, 16);
            if (address < start || address >= end) continue;
            while (*cursor == ' ') cursor++;
            while (*cursor && *cursor != ' ') cursor++; /* perms */
            off_t offset = (off_t)strtoull(cursor, &cursor, 16);
            while (*cursor == ' ') cursor++;
            while (*cursor && *cursor != ' ') cursor++; /* device */
            ino_t mapped = (ino_t)strtoull(cursor, &cursor, 10);
            while (*cursor == ' ') cursor++;
            for (int g = 0; g < guarded_count; g++) {
                if (strcmp(cursor, guarded[g]) == 0) {
                    *needed = offset + (off_t)(end - start);
                    *inode = mapped;
                    found = g;
                    break;
                }
            }
            if (found < 0) {
                close(fd);
                return -1; /* the address is in a mapping, not a guarded one */
            }
        }
        if (found >= 0) break;
    }
    close(fd);
    return found;
}

static void on_sigbus(int signal_number, siginfo_t *info, void *context) {
    (void)signal_number;
    (void)context;
    /* Faults again after the file was found whole: a page that cannot be read
     * (a failing disk), not a cut; past this many, not ours. */
    static volatile sig_atomic_t whole_again = 0;
    if (info != NULL && info->si_code == BUS_ADRERR) {
        off_t needed = 0;
        ino_t inode = 0;
        int g = guarded_mapping((uintptr_t)info->si_addr, &needed, &inode);
        int fd = g >= 0 ? open(guarded[g], O_RDWR | O_CLOEXEC) : -1;
        if (fd >= 0) {
            struct stat status;
            int answered = 0;
            /* The file at the path is the one mapped (not one made anew since). */
            if (fstat(fd, &status) == 0 && status.st_ino == inode) {
                if (status.st_size < needed) {
                    if (ftruncate(fd, needed) == 0) {
                        static const char zeros[4096];
                        off_t left = status.st_size < FIRST_REGION ? status.st_size : FIRST_REGION;
                        for (off_t at = 0; at < left; at += (off_t)sizeof zeros) {
                            off_t part = left - at < (off_t)sizeof zeros ? left - at : (off_t)sizeof zeros;
                            if (pwrite(fd, zeros, (size_t)part, at) < 0) break;
                        }
                        repairs[g] = repairs[g] + 1;
                        whole_again = 0;
                        answered = 1;
                    }
                } else if (whole_again < 100) {
                    /* Repaired meanwhile by another thread's fault: the page is there. */
                    whole_again = whole_again + 1;
                    answered = 1;
                }
            }
            close(fd);
            if (answered) return; /* the access is made again, and finds its page */
        }
    }
    sigaction(SIGBUS, &previous, NULL); /* not ours: the fault comes again, to it */
}

static PyObject *guard(PyObject *self, PyObject *args) {
    (void)self;
    const char *path;
    if (!PyArg_ParseTuple(args, "s", &path)) return NULL;
    if (strlen(path) >= MAX_PATH) {
        PyErr_SetString(PyExc_ValueError, "path too long to guard");
        return NULL;
    }
    for (int g = 0; g < guarded_count; g++) {
        if (strcmp(guarded[g], path) == 0) Py_RETURN_TRUE;
    }
    if (guarded_count >= MAX_GUARDED) Py_RETURN_FALSE; /* watched, unguarded */
    strcpy(guarded[guarded_count], path);
    guarded_count = guarded_count + 1; /* after the path: the handler reads it whole */
    if (!installed) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_sigaction = on_sigbus;
        action.sa_flags = SA_SIGINFO | SA_NODEFER;
        sigemptyset(&action.sa_mask);
        if (sigaction(SIGBUS, &action, &previous) != 0) {
            guarded_count = guarded_count - 1;
            return PyErr_SetFromErrno(PyExc_OSError);
        }
        installed = 1;
    }
    Py_RETURN_TRUE;
}

static PyObject *repair_count(PyObject *self, PyObject *args) {
    (void)self;
    const char *path;
    if (!PyArg_ParseTuple(args, "s", &path)) return NULL;
    for (int g = 0; g < guarded_count; g++) {
        if (strcmp(guarded[g], path) == 0) return PyLong_FromLong((long)repairs[g]);
    }
    return PyLong_FromLong(0);
}

static PyMethodDef methods[] = {
    {"guard", guard, METH_VARARGS,
     "guard(path) -> bool: repair a SIGBUS from a mapping of this file (the path "
     "as /proc/self/maps names it) instead of ending the process; False when "
     "too many files are guarded already."},
    {"repair_count", repair_count, METH_VARARGS,
     "repair_count(path) -> int: how many SIGBUS faults of this guarded file "
     "were repaired in this process."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_sigbus",
    "A SIGBUS from a cut SQLite WAL index, repaired instead of fatal.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__sigbus(void) { return PyModule_Create(&module); }
