"""Files on disk, safely and without copies: bounded reads and atomic writes of regular files only
(`access`), read-only memory maps of the files decoded (`mapped`), output as pieces streamed to a file with
large ranges copied by the kernel (`chunks`).  Nothing here knows a format; this package imports nothing of
mlirbc but `errors`."""
