-- atlas:sum ignore
SELECT 1;
