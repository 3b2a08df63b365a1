/* Presentation as an observer of run control (present.h). */
#include "debug/present/present.h"

#include "debug/present/compare_view.h"
#include "debug/present/display.h"
#include "debug/present/frame.h"
#include "debug/state/observers.h"
#include "debug/state/session_impl.h"

static void on_case_closing(session *s, void *ctx)
{
    (void)ctx;
    display_free_all(s);
    compare_view_free(s->compare); /* a compare against the case that goes */
    s->compare = NULL;
}

static void on_session_freeing(session *s, void *ctx)
{
    (void)ctx;
    display_free_all(s);
}

static void on_stop_location(session *s, void *ctx)
{
    (void)ctx;
    run_print_location(s);
}

static void on_normal_stop(session *s, int only_changed, void *ctx)
{
    (void)ctx;
    display_show_all(s, only_changed);
}

void present_attach(session *s)
{
    session_observe(s, &(session_observer){.case_closing = on_case_closing,
                                           .session_freeing = on_session_freeing,
                                           .stop_location = on_stop_location,
                                           .normal_stop = on_normal_stop});
}
