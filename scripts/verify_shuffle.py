#!/usr/bin/env python3
"""Re-derive a hand's deck from its revealed seed, independently of the Rust code.

Usage:  pip install pycryptodome
        python3 scripts/verify_shuffle.py SEED_HEX [COMMITMENT_HEX]

Prints the 52 cards in dealing order (and checks sha256(seed) against the commitment).
The algorithm (README, "Fair shuffle"): cards in id order 2c 2d 2h 2s 3c ... As; ChaCha20
keystream with the seed as key and a zero nonce, read as little-endian u32 words; for i from
51 down to 1 draw j uniformly in 0..=i by rejection sampling, swap positions i and j.
"""
import hashlib
import struct
import sys

from Crypto.Cipher import ChaCha20


def deck(seed: bytes) -> list[str]:
    stream = ChaCha20.new(key=seed, nonce=b"\0" * 8).encrypt(b"\0" * 4096)
    words = struct.unpack("<1024I", stream)
    k = 0
    cards = list(range(52))
    for i in range(51, 0, -1):
        n = i + 1
        zone = (0xFFFFFFFF // n) * n
        while True:
            x = words[k]
            k += 1
            if x < zone:
                break
        j = x % n
        cards[i], cards[j] = cards[j], cards[i]
    return ["23456789TJQKA"[c // 4] + "cdhs"[c % 4] for c in cards]


def main() -> int:
    seed = bytes.fromhex(sys.argv[1])
    if len(sys.argv) > 2 and hashlib.sha256(seed).hexdigest() != sys.argv[2].lower():
        print("commitment mismatch: sha256(seed) is", hashlib.sha256(seed).hexdigest())
        return 1
    print(" ".join(deck(seed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
