# bash completion, installed where bash-completion loads it on demand
# (configure's --with-bash-completion-dir; default under $(datadir)).
dist_bashcompletion_DATA = completion/ptodb
