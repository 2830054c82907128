# The README's first command. Speeds vary, so only the table's number, format
# and byte columns and its verdicts are compared; every SVG must be well formed.
tlayout demo --out pics > demo.txt
grep -E '^ ?[0-9]  .*(yes|FAILED)' demo.txt | cut -c1-35
grep -oE '(yes, exact|yes, < 1 step|yes, <= 1/2 step|FAILED)$' demo.txt
grep -E '^ +(larod|TIDL|DML|RKNN|TensorRT) ' demo.txt
tail -n 1 demo.txt
sh "$DATA/svgcheck.sh" pics/*.svg
