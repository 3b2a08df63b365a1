# ir: files of src/ir/ are added here (src_libptodb_a_SOURCES += ...)
