break mlp_block
commands
run
end
run
