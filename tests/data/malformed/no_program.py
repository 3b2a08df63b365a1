# pypto.program: P
import pypto.language as pl
