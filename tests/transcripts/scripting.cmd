echo hello\tworld\n
echo no newline\
echo -- next\n
set rtol 1e-3
show rtol
set rtol -1
set rtol abc
set ref torch1.13
show ref
set ref torch3
set print elements 5
show print elements
set auto-load safe-path /tmp:/var
show auto-load safe-path
set nosuch 1
show nosuch
set
define greet
  echo hello $arg0 and $arg1 ($argc)\n
end
greet world moon
document greet
Say hello to the arguments.
end
help greet
define twice
greet $arg0 x
greet $arg0 y
end
twice a
define help
document nosuch
define bad name
foo
s
de
sh rtol
