-- COPY through psql: inline data after COPY FROM STDIN (as pg_dump writes it),
-- \copy in text and CSV, COPY TO STDOUT, a bad value with its CONTEXT line
drop table if exists copy_t;
create table copy_t (id int, name text, score float8);
copy copy_t from stdin;
1	alpha	1.5
2	\N	2
6	tab\there	-0.5
\.
\copy copy_t from stdin with (format csv)
3,"be,ta",3.25
4,,
\.
select * from copy_t order by id;
\copy copy_t to stdout with csv header
copy copy_t (id) to stdout;
copy copy_t from stdin;
5	bad	x
\.
\copy (select id, name from copy_t where id > 2 order by id) to stdout
select count(*) from copy_t;
drop table copy_t;
