#include "base/status.h"

static const char *const status_messages[] = {
#define PTODB_STATUS_MSG(name, msg) msg,
    PTODB_STATUS_LIST(PTODB_STATUS_MSG)
#undef PTODB_STATUS_MSG
};

static const char *const status_names[] = {
#define PTODB_STATUS_NAME(name, msg) #name,
    PTODB_STATUS_LIST(PTODB_STATUS_NAME)
#undef PTODB_STATUS_NAME
};

const char *ptodb_status_message(ptodb_status status)
{
    if ((unsigned)status >= PTODB_STATUS_COUNT)
        return "unknown status";
    return status_messages[status];
}

const char *ptodb_status_name(ptodb_status status)
{
    if ((unsigned)status >= PTODB_STATUS_COUNT)
        return "UNKNOWN";
    return status_names[status];
}
