/* Data files embedded in the binary as defaults, each NUL-terminated. */
    .section .rodata
    .global pb_data_nyslice_deck
    .type pb_data_nyslice_deck, @object
    .balign 16
pb_data_nyslice_deck:
    .incbin "data/nyslice/default-deck.json"
    .byte 0
    .size pb_data_nyslice_deck, . - pb_data_nyslice_deck
    .section .note.GNU-stack,"",@progbits
