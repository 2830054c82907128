#!/bin/sh
# Doxygen INPUT_FILTER for the tlayout headers (see Doxyfile): their plain C
# comments become Doxygen comments, so the headers need no Doxygen markup.
#   /* text           at the start of a line -> /** text     documents what follows
#   x; /* text */     after a member or value -> x; /**< text  documents x
#   #define X 1 /* text */                   -> /**<         documents X
#   the first comment of the file            -> ends in @file: the file's page
#   <vendor> in a comment                    -> \<vendor\> (not an HTML tag)
# Rulers (/* ---- Builders ---- */, /* ==== */) stay plain comments. No line is
# added or removed, so line numbers hold.
sed -e 's#^\([[:space:]]*\)/\*\( [^-=]\|[^ *=-]\)#\1/**\2#' \
    -e 's#\([;,{]\)\([[:space:]]*\)/\*\([^*]\)#\1\2/**<\3#' \
    -e 's#^\(\#[[:space:]]*define[^/]*\)/\*\([^*]\)#\1/**<\2#' \
    -e '1,/\*\//s#\*/# @file */#' \
    -e '/^[[:space:]]*\/*\*/s#<\([a-z_]*\)>#\\<\1\\>#g' \
    "$1"
