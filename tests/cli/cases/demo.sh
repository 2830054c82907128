# The table rows without the error column (floats), and the closing line.
tlayout demo > demo.txt
awk '$1 ~ /^[0-9]+$/ && ($NF == "yes" || $NF == "NO") { print $1, $2, $3, $NF }' demo.txt
tail -n 1 demo.txt
