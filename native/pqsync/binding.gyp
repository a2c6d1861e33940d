{
  "targets": [
    {
      "target_name": "pqsync",
      "sources": ["pqsync.c"],
      "include_dirs": ["<!(pg_config --includedir)"],
      "libraries": ["-L<!(pg_config --libdir)", "-lpq"],
      "cflags": ["-Wall", "-Wextra", "-Wno-unused-parameter"]
    }
  ]
}
