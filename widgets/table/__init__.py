"""What both card tables share: the shell (names, teacher box, settings panel), the card row
and number line pieces, pure rendering, deal codes and the computer-player runner."""
