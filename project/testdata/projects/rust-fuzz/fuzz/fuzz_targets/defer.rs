#![no_main]
