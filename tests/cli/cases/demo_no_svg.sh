# --no-svg writes no folder (and no file at all); --runs 1 times each conversion once.
tlayout demo --no-svg --runs 1 > demo.txt
tail -n 1 demo.txt
ls
