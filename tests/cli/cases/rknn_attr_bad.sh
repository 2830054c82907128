tlayout rknn-attr 'index=0, dims=[1, 2], type=INT8'
