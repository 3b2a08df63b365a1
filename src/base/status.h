/* Status codes: one X-macro table, one message per code (tig's habit). */
#ifndef PTODB_BASE_STATUS_H
#define PTODB_BASE_STATUS_H

#define PTODB_STATUS_LIST(X)                                   \
    X(OK, "success")                                          \
    X(ERR_USAGE, "usage error")                               \
    X(ERR_IO, "input/output error")                           \
    X(ERR_NOMEM, "out of memory")                             \
    X(ERR_SYNTAX, "syntax error")                             \
    X(ERR_RESOLVE, "name resolution error")                   \
    X(ERR_FORMAT, "malformed data file")                      \
    X(ERR_UNSUPPORTED, "unsupported construct")               \
    X(ERR_SHAPE, "shape mismatch")                            \
    X(ERR_BOUNDS, "index out of bounds")                      \
    X(ERR_RUNTIME, "runtime error")                           \
    X(ERR_DEADLOCK, "deadlock")                               \
    X(ERR_INTERRUPTED, "interrupted")                         \
    X(ERR_TIMEOUT, "time limit exceeded")                     \
    X(ERR_NOT_FOUND, "not found")                             \
    X(ERR_VALIDATION, "validation failed")                    \
    X(BLOCKED, "blocked on an empty queue")

typedef enum {
#define PTODB_STATUS_ENUM(name, msg) PTODB_##name,
    PTODB_STATUS_LIST(PTODB_STATUS_ENUM)
#undef PTODB_STATUS_ENUM
    PTODB_STATUS_COUNT
} ptodb_status;

/* The human-readable message of a status code; never NULL. */
const char *ptodb_status_message(ptodb_status status);
/* The code's name as written in the table ("ERR_IO"); never NULL. */
const char *ptodb_status_name(ptodb_status status);

/* Process exit codes documented in ptodb(1). */
enum {
    PTODB_EXIT_OK = 0,
    PTODB_EXIT_VALIDATION_FAILED = 1,
    PTODB_EXIT_USAGE = 2
};

#endif
