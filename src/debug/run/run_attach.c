/* Run control as an observer of the session's state (run_attach.h). */
#include "debug/run/run_attach.h"

#include "debug/state/observers.h"
#include "debug/run/point.h"
#include "debug/state/session_impl.h"

static void on_case_closing(session *s, void *ctx)
{
    (void)ctx;
    session_validate_cancel(s);
    run_kill(s);
    point_side_kill(s);
    run_free_results(s);
}

void run_attach(session *s)
{
    session_observe(s, &(session_observer){.case_closing = on_case_closing});
}
