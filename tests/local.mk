# Shell-driven end-to-end tests. Each script exits 0 (pass), 77 (skip, with a
# message saying why) or anything else (fail).
CLI_TESTS = \
	tests/cli/help_version.sh \
	tests/cli/options_documented.sh \
	tests/cli/engine_links_without_ui.sh
TESTS += $(CLI_TESTS)
EXTRA_DIST += $(CLI_TESTS) tests/cli/lib.sh
