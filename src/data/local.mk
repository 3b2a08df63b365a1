# data: files of src/data/ are added here (src_libptodb_a_SOURCES += ...)
