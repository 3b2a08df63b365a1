# Sourced by the shell that starts each test (AM_TESTS_ENVIRONMENT,
# Makefile.am), with ptodb_test_log (the test's .log file, as make names it)
# and ptodb_test_builddir (the build folder) set: the test gets a home of its
# own, so that nothing it runs reads or writes the user's. Its HOME and its
# XDG_CONFIG_HOME, XDG_STATE_HOME, XDG_DATA_HOME and XDG_CACHE_HOME are empty
# folders under BUILDDIR/test-home/TEST/, made afresh each run (and kept
# after it for a look; `make clean` removes them), so ptodb's rc files,
# saved sessions and history, readline's ~/.inputrc, chromium's profile and
# npm's ~/.npmrc and cache are the test's own.
# The user's values are kept, once for the whole suite, in PTODB_REAL_HOME
# and PTODB_REAL_XDG_*_HOME: tests/home_guard.sh, which runs every test,
# fails a test during which anything of ptodb's under them changed.
# npm's cache is shared by the tests of one build (npm_config_cache: the
# packages that dap_client.sh and vscode_package.sh install are fetched once),
# or by the builds of scripts/test (PTODB_TEST_NPM_CACHE).
if [ -z "${PTODB_REAL_HOME+set}" ]; then
    PTODB_REAL_HOME=${HOME-}
    PTODB_REAL_XDG_CONFIG_HOME=${XDG_CONFIG_HOME-}
    PTODB_REAL_XDG_STATE_HOME=${XDG_STATE_HOME-}
    PTODB_REAL_XDG_DATA_HOME=${XDG_DATA_HOME-}
    PTODB_REAL_XDG_CACHE_HOME=${XDG_CACHE_HOME-}
    export PTODB_REAL_HOME PTODB_REAL_XDG_CONFIG_HOME PTODB_REAL_XDG_STATE_HOME \
        PTODB_REAL_XDG_DATA_HOME PTODB_REAL_XDG_CACHE_HOME
fi
case $ptodb_test_log in
/* | ../* | */../*) PTODB_TEST_HOME=$ptodb_test_builddir/test-home/$(basename "$ptodb_test_log" .log) ;;
*) PTODB_TEST_HOME=$ptodb_test_builddir/test-home/${ptodb_test_log%.log} ;;
esac
rm -rf "$PTODB_TEST_HOME" &&
    mkdir -p "$PTODB_TEST_HOME/home" "$PTODB_TEST_HOME/config" "$PTODB_TEST_HOME/state" \
        "$PTODB_TEST_HOME/data" "$PTODB_TEST_HOME/cache" || {
    echo "test_env.sh: cannot make $PTODB_TEST_HOME" >&2
    exit 99
}
HOME=$PTODB_TEST_HOME/home
XDG_CONFIG_HOME=$PTODB_TEST_HOME/config
XDG_STATE_HOME=$PTODB_TEST_HOME/state
XDG_DATA_HOME=$PTODB_TEST_HOME/data
XDG_CACHE_HOME=$PTODB_TEST_HOME/cache
npm_config_cache=${PTODB_TEST_NPM_CACHE:-$ptodb_test_builddir/test-home/npm-cache}
export PTODB_TEST_HOME HOME XDG_CONFIG_HOME XDG_STATE_HOME XDG_DATA_HOME XDG_CACHE_HOME npm_config_cache
