# exec: files of src/exec/ are added here (src_libptodb_a_SOURCES += ...)
