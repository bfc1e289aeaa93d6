-- a multi-statement script, as a user would run it with psql -f
drop table if exists orders;
create table customers (id integer primary key, name text not null, city varchar(20));
create table orders (id bigint primary key, customer_id integer, amount numeric(10,2), placed date);
insert into customers values (1, 'Ada', 'London'), (2, 'Brian', 'Paris'), (3, 'Chen', NULL);
insert into orders values
  (100, 1, 25.50, '2024-01-05'),
  (101, 1, 4.50, '2024-01-06'),
  (102, 2, 100.00, '2024-02-01'),
  (103, 3, NULL, '2024-02-02'),
  (104, 9, 1.00, '2024-03-01');
select c.name, count(*) as orders, sum(o.amount) as total, avg(o.amount) as mean
  from customers c join orders o on o.customer_id = c.id
  group by c.name
  having count(*) >= 1
  order by total desc nulls last;
select name, city from customers where city is null or city like 'L%' order by name;
select id, placed, amount * 2 as doubled from orders order by placed desc limit 2 offset 1;
select 0.1::float8 + 0.2::float8 as f, 1e100::float8 as big, true as b, null::int as n, '' as empty;
begin;
insert into customers values (4, 'Dora', 'Rome');
rollback;
select count(*) from customers;
select 1 where false;
drop table orders;
drop table customers;
