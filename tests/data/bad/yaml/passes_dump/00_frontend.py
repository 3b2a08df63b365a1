# pypto.program: Empty
