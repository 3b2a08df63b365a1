# data: ZIP, pickle subset, .pt, .npy, YAML manifest, case discovery.
src_libptodb_a_SOURCES += \
	src/data/mapfile.c src/data/mapfile.h \
	src/data/crc32_table.h \
	src/data/zip.c src/data/zip.h \
	src/data/pickle.c src/data/pickle.h \
	src/data/pt.c src/data/pt.h
src_libptodb_a_SOURCES += \
	src/data/npy.c src/data/npy.h
