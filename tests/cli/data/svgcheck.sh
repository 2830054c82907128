#!/bin/sh
# svgcheck.sh FILE... : check that each file is a well-formed SVG document as
# `tlayout draw` writes them (POSIX sh + awk, so CI needs no XML tools):
# an XML declaration, one <svg> root in the SVG namespace, every tag closed in
# order, attributes name="value" without < or &-typos, text without a bare <
# or an unknown entity. Prints "FILE: ok" or "FILE: <what is wrong>"; exits 1
# when any file is not well-formed.
status=0
for f in "$@"; do
    awk -v file="$f" '
    function fail(msg) { print file ": " msg; bad = 1; exit 1 }
    function entities(s, where,   t) {
        t = s
        while (match(t, /&/)) {
            t = substr(t, RSTART)
            if (!match(t, /^&(lt|gt|amp|quot|apos|#[0-9]+|#x[0-9A-Fa-f]+);/)) fail("bad entity in " where ": " substr(t, 1, 12))
            t = substr(t, RLENGTH + 1)
        }
    }
    function attributes(s,   t, n) {
        t = s
        sub(/^[ \t\n]+/, "", t)
        while (t != "") {
            if (!match(t, /^[A-Za-z_:][-A-Za-z0-9_:.]*[ \t\n]*=[ \t\n]*"[^"<]*"/)) fail("bad attribute: " substr(t, 1, 40))
            n = RLENGTH
            entities(substr(t, 1, n), "attribute")
            t = substr(t, n + 1)
            if (t != "" && t !~ /^[ \t\n]/) fail("attributes not separated: " substr(t, 1, 40))
            sub(/^[ \t\n]+/, "", t)
        }
    }
    { doc = doc $0 "\n" }
    END {
        if (bad) exit 1
        if (substr(doc, 1, 5) != "<?xml") fail("no XML declaration")
        depth = 0; roots = 0
        while ((i = index(doc, "<")) > 0) {
            text = substr(doc, 1, i - 1)
            if (depth == 0 && text ~ /[^ \t\n]/) fail("text outside the root element")
            entities(text, "text")
            doc = substr(doc, i)
            if (substr(doc, 1, 4) == "<!--") { j = index(doc, "-->"); if (!j) fail("unclosed comment"); doc = substr(doc, j + 3); continue }
            j = index(doc, ">"); if (!j) fail("unclosed tag")
            tag = substr(doc, 2, j - 2); doc = substr(doc, j + 1)
            if (substr(tag, 1, 1) == "?") { if (substr(tag, length(tag)) != "?") fail("bad declaration"); continue }
            if (substr(tag, 1, 1) == "/") {
                name = substr(tag, 2); sub(/[ \t\n]+$/, "", name)
                if (depth == 0 || stack[depth] != name) fail("</" name "> closes <" stack[depth] ">")
                depth--; continue
            }
            empty = substr(tag, length(tag)) == "/"
            if (empty) tag = substr(tag, 1, length(tag) - 1)
            if (!match(tag, /^[A-Za-z_:][-A-Za-z0-9_:.]*/)) fail("bad tag name: " substr(tag, 1, 20))
            name = substr(tag, 1, RLENGTH); attributes(substr(tag, RLENGTH + 1))
            if (depth == 0) { roots++; if (name != "svg" || tag !~ /xmlns="http:\/\/www.w3.org\/2000\/svg"/) fail("root is not <svg xmlns=SVG>") }
            if (roots > 1) fail("more than one root element")
            if (!empty) stack[++depth] = name
        }
        if (depth != 0) fail("<" stack[depth] "> is never closed")
        if (doc ~ /[^ \t\n]/) fail("text after the root element")
        if (roots != 1) fail("no root element")
        print file ": ok"
    }' "$f" || status=1
done
exit $status
