select 'before' as step;
select * form nowhere;
select 10 +
  20 * 3 as v,
  2 from;
select 'after' as step;
