# pypto.program: P
