/* CStartup has no interface: its one constructor runs before the program's own (split.c). */
