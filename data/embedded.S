/* Data files embedded in the binary as defaults, each NUL-terminated. */
    .section .rodata
    .global pb_data_nyslice_deck
    .type pb_data_nyslice_deck, @object
    .balign 16
pb_data_nyslice_deck:
    .incbin "data/nyslice/default-deck.json"
    .byte 0
    .size pb_data_nyslice_deck, . - pb_data_nyslice_deck
    .global pb_data_nyslice_rules
    .type pb_data_nyslice_rules, @object
    .balign 16
pb_data_nyslice_rules:
    .incbin "docs/nyslice-rules.md"
    .byte 0
    .size pb_data_nyslice_rules, . - pb_data_nyslice_rules
    .global pb_data_theory_board
    .type pb_data_theory_board, @object
    .balign 16
pb_data_theory_board:
    .incbin "data/theory/default-board.json"
    .byte 0
    .size pb_data_theory_board, . - pb_data_theory_board
    .global pb_data_theory_rules
    .type pb_data_theory_rules, @object
    .balign 16
pb_data_theory_rules:
    .incbin "docs/theory-rules.md"
    .byte 0
    .size pb_data_theory_rules, . - pb_data_theory_rules
    .global pb_data_delivery_map
    .type pb_data_delivery_map, @object
    .balign 16
pb_data_delivery_map:
    .incbin "data/delivery/map.json"
    .byte 0
    .size pb_data_delivery_map, . - pb_data_delivery_map
    .global pb_data_delivery_cards
    .type pb_data_delivery_cards, @object
    .balign 16
pb_data_delivery_cards:
    .incbin "data/delivery/cards.json"
    .byte 0
    .size pb_data_delivery_cards, . - pb_data_delivery_cards
    .global pb_data_delivery_rules
    .type pb_data_delivery_rules, @object
    .balign 16
pb_data_delivery_rules:
    .incbin "docs/delivery-rules.md"
    .byte 0
    .size pb_data_delivery_rules, . - pb_data_delivery_rules
    .section .note.GNU-stack,"",@progbits
