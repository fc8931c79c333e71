"""The lesson pieces around the tables: the course list, exit tickets, problem sets, practice,
mistakes, the explorer, worked examples, the strategy lab, the printable kit, the student name
bar and the teacher-only parts of a page."""
