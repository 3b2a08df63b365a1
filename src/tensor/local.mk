# tensor: files of src/tensor/ are added here (src_libptodb_a_SOURCES += ...)
