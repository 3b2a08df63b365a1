# debug: files of src/debug/ are added here (src_libptodb_a_SOURCES += ...)
