module tickwork/peers/pingpong-go

go 1.22
