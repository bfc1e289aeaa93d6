\set VERBOSITY verbose
select 1/0;
selec 1;
select 9223372036854775807 + 1;
