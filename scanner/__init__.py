"""Reading filled pulka sheets: registration, identity, marks, digits, decoding with the rules."""
